import { DataList, DataMap, type DataValue } from '../data';
import type { ValidationMessage, ValidationPath } from '../schema';
import type { FieldRules } from '../resources/field-annotations';

/**
 * The validation filter's read-only and create-only checks (the reference's `RestLiDataValidator` with a
 * resource's `@ReadOnly` / `@CreateOnly` paths; see resources/field-annotations.ts for the rules), as
 * message-list text in the reference's words, `ERROR :: /id :: ReadOnly field present in a create request`.
 */

/** The text of one message, as the filter writes every other. */
function line(path: ValidationPath, text: string): string {
  let p = '';
  for (const c of path) p += `/${c}`;
  return `ERROR :: ${p} :: ${text}\n`;
}

/** Methods whose bodies may not set read-only fields (the reference's READ_ONLY_RESTRICTED_METHODS). */
const READ_ONLY_RESTRICTED: ReadonlySet<string> = new Set([
  'create',
  'batch_create',
  'partial_update',
  'batch_partial_update',
]);
/** Methods whose bodies may not set create-only fields. */
const CREATE_ONLY_RESTRICTED: ReadonlySet<string> = new Set(['partial_update', 'batch_partial_update']);

/**
 * Every element of `data` (the root excluded), depth first, with its path: what "present in the request"
 * means, as the reference visits every data element under the entity.
 */
function walk(data: DataValue, path: (string | number)[], visit: (path: ValidationPath) => void): void {
  if (data instanceof DataMap) {
    for (const [k, v] of data) {
      path.push(k);
      visit(path);
      walk(v, path, visit);
      path.pop();
    }
  } else if (data instanceof DataList) {
    data.forEach((v, i) => {
      path.push(i);
      visit(path);
      walk(v, path, visit);
      path.pop();
    });
  }
}

/** Messages for the read-only and create-only fields `data` (a whole entity) sets in a `method` request. */
export function presentFieldMessages(data: DataValue, rules: FieldRules, method: string): string {
  const readOnly = READ_ONLY_RESTRICTED.has(method);
  const createOnly = CREATE_ONLY_RESTRICTED.has(method);
  if (!readOnly && !createOnly) return '';
  let out = '';
  walk(data, [], (path) => {
    if (readOnly && rules.isReadOnly(path))
      out += line(path, `ReadOnly field present in a ${method} request`);
    if (createOnly && rules.isCreateOnly(path))
      out += line(path, `CreateOnly field present in a ${method} request`);
  });
  return out;
}

/**
 * The messages of a schema validation less the "required but not found" of read-only fields: the client
 * cannot send those, so a create or update treats them as optional (the reference's `setTreatOptional`).
 */
export function withoutReadOnlyAbsences(
  messages: readonly ValidationMessage[],
  rules: FieldRules,
  prefix: ValidationPath = [],
): ValidationMessage[] {
  return messages.filter(
    (m) =>
      !(
        m.getText().startsWith('field is required but not found') &&
        rules.isReadOnly([...prefix, ...m.getPath()])
      ),
  );
}

/**
 * What a patch would write into an empty entity, as the reference sees it after applying the patch to one:
 * the paths it sets (every element of each `$set` value, and the records its nested patches create) and
 * those it deletes.
 */
function patchPaths(
  patch: DataMap,
  path: (string | number)[],
  set: (path: ValidationPath) => void,
  deleted: (path: ValidationPath) => void,
): boolean {
  let writes = false;
  for (const [name, op] of patch) {
    if (name === '$set' && op instanceof DataMap) {
      for (const [field, value] of op) {
        writes = true;
        path.push(field);
        set(path);
        walk(value, path, set);
        path.pop();
      }
    } else if (name === '$delete' && op instanceof DataList) {
      for (const field of op) {
        path.push(field as string);
        deleted(path);
        path.pop();
      }
    } else if (!name.startsWith('$') && op instanceof DataMap) {
      path.push(name);
      const inner: ValidationPath[] = [];
      // the nested record exists in the patched entity only if something is written into it
      if (patchPaths(op, path, (p) => inner.push([...p]), deleted)) {
        writes = true;
        set(path);
        for (const p of inner) set(p);
      }
      path.pop();
    }
  }
  return writes;
}

/**
 * Messages for a patch of a `method` request (partial_update, batch_partial_update): deleting a read-only or
 * create-only field or anything inside one (reported alone, as the reference stops there), then setting one.
 */
export function patchFieldMessages(patch: DataMap, rules: FieldRules, method: string): string {
  let deletes = '';
  let sets = '';
  patchPaths(
    patch,
    [],
    (path) => {
      if (rules.isReadOnly(path)) sets += line(path, `ReadOnly field present in a ${method} request`);
      if (CREATE_ONLY_RESTRICTED.has(method) && rules.isCreateOnly(path))
        sets += line(path, `CreateOnly field present in a ${method} request`);
    },
    (path) => {
      if (rules.inReadOnly(path)) deletes += line(path, 'cannot delete a ReadOnly field or its descendants');
      else if (rules.inCreateOnly(path))
        deletes += line(path, 'cannot delete a CreateOnly field or its descendants');
    },
  );
  return deletes !== '' ? deletes : sets;
}
