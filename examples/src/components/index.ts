// hybrid-node: an organ-named folder with its own entry point
export { Button } from './Button';
