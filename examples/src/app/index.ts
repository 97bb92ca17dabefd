export { startApp } from './app';

// index-barrel-pattern: logic in a barrel
export function version(): string {
  return '1.0.0';
}
