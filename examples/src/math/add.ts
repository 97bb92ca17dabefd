// pure-function-isolation: a pure folder importing a module
import { charge } from '../billing';

export const add = (a: number, b: number): number => a + b + charge(0);
