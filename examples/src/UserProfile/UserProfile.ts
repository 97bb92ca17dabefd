export const profileName = (first: string, last: string): string => `${first} ${last}`;
