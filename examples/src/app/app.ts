import { login } from '../auth/session';
import { charge } from '@/billing';
import { routes } from './routes';

export function startApp(user: string): number {
  login(user);
  return charge(routes.length);
}
