export { login, logout } from './session';
export { hash } from './utils/hash';
