/**
 * Jest globalSetup: generates the test trees before any test runs, so `npx jest <anything>` works on a
 * fresh clone. Writes only files whose text changed, so runs in parallel checkouts do not disturb each other.
 */
import { generateAll } from './generate';

export default function globalSetup(): void {
  generateAll();
}
