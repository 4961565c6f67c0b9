/**
 * Internal state of the templates, on symbols so that templates show only their public API (STYLE.md).
 * Nothing here is exported from the package root.
 */

/** The wrapped DataMap of a record or error template, the DataList of an array template... never replaced. */
export const DATA = Symbol('svc.template.data');
/** The coercer of an array's items or a map's values. */
export const ITEMS = Symbol('svc.template.items');
