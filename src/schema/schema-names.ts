/**
 * Name syntax of the schema language (the reference format's): names and namespaces are dot-separated
 * identifiers; field names, enum symbols and union member aliases are single identifiers.
 */

const IDENT = '[A-Za-z_][0-9A-Za-z_]*';
const NAME = /* @__PURE__ */ (() => new RegExp(`^${IDENT}(\\.${IDENT})*$`))();
const IDENTIFIER = /* @__PURE__ */ (() => new RegExp(`^${IDENT}$`))();

/** A full or simple name: `Foo`, `com.acme.Foo`. */
export function isValidName(name: string): boolean {
  return NAME.test(name);
}

/** A namespace or package: empty, or dot-separated identifiers. */
export function isValidNamespace(namespace: string): boolean {
  return namespace === '' || NAME.test(namespace);
}

/** A field name, enum symbol or union member alias. */
export function isValidIdentifier(name: string): boolean {
  return IDENTIFIER.test(name);
}

/**
 * The full names a type reference may mean, in lookup order: a name with a dot is already full; a simple
 * name is tried in the current namespace first, then as given.
 */
export function referenceCandidates(name: string, currentNamespace: string): string[] {
  if (name.includes('.') || currentNamespace === '') return [name];
  return [`${currentNamespace}.${name}`, name];
}

/**
 * The package a nested named schema inherits when it declares none: the enclosing package, extended by the
 * sub-namespace when the nested schema's namespace lies below the enclosing namespace (as in Rest.li, so
 * that `com.a` packaged as `org.x` puts `com.a.b.Inner` in `org.x.b`).
 */
export function inheritedPackage(
  enclosingPackage: string,
  enclosingNamespace: string,
  namespace: string,
): string {
  if (enclosingPackage !== '' && namespace.startsWith(`${enclosingNamespace}.`)) {
    return enclosingPackage + namespace.slice(enclosingNamespace.length);
  }
  return enclosingPackage;
}

/** The relative path of the file that defines `fullName`: `com/acme/Foo.pdsc`. */
export function schemaFilePath(fullName: string, separator = '/'): string {
  return `${fullName.split('.').join(separator)}.pdsc`;
}
