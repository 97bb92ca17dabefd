export function Button(props: { label: string }): string {
  return `<button>${props.label}</button>`;
}
