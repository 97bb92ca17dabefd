// naming-convention: PascalCase folder
export { profileName } from './UserProfile';
