// pure-function-isolation: a declared pure-function folder (structure.pureFunctionPaths)
// importing a module at run time
import { charge } from '../billing';

export const add = (a: number, b: number): number => a + b + charge(0);
