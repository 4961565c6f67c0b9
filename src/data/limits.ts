/**
 * The one nesting rule of Svc: every decoder (JSON, PSON, the URI grammar, `.pdsc` text) and every recursive
 * walk over data or schemas (validation, templates, patches, projections, defaults) accepts at most
 * {@link MAX_NESTING_DEPTH} levels of nested maps and lists (records, arrays, maps, unions and patch
 * operations each count as one level; the top-level container is level 1). Deeper input is refused with a
 * typed error naming the limit (a 400 at the HTTP edge), never a stack overflow.
 *
 * Why 1000: it is the default nesting limit of Jackson's `StreamReadConstraints`, which the reference's JSON
 * codec reads through, so whatever a Rest.li peer accepts we accept too; and every walk here stays well inside
 * Node's default stack at that depth (each one is tested at exactly this depth).
 */
export const MAX_NESTING_DEPTH = 1000;
