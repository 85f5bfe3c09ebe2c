/**
 * How a view moves the app elsewhere. Apart from App.tsx so that the views,
 * which App.tsx renders, do not import App.tsx back.
 */

import type { Location } from './views.js';

export interface Navigate {
  (location: Location): void;
}
