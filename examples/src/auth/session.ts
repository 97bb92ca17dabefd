import { charge } from '../billing';
import { hash } from './utils/hash';

let current: string | null = null;

export function login(user: string): string {
  current = hash(user);
  return current;
}

export function logout(): number {
  current = null;
  return charge(0);
}
