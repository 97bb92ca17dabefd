// circular-dependency: billing -> auth -> billing
import { login } from '../auth';
// external-import-boundary: an organ of auth used from billing
import { hash } from '../auth/utils/hash';

export function charge(amount: number): number {
  return amount > 0 ? login(hash('guest')).length : 0;
}
