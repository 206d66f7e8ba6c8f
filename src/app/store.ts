import { createStore } from 'jotai';

/**
 * The app's one jotai store, created outside React so that non-React code (the API
 * client's session-expired handler) can reset the user.
 */
export const appStore = createStore();
