// zero-peer-file: a loose file beside the barrel
export const routes: string[] = ['/', '/cart'];
