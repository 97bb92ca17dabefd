export { charge } from './billing';
