// My profile and its form in one chunk: they share the registry's profile pieces, and one more
// entry into those (not two) keeps the bundler from regrouping what the sign-in page loads.
export { MyProfileEditPage } from './MyProfileEditPage';
export { MyProfilePage } from './MyProfilePage';
