export function hash(value: string): string {
  return value.split('').reverse().join('');
}
