/**
 * Helpers shared by the Avro translation tests.
 */
import type * as avsc from 'avsc';
import { join } from 'node:path';
import {
  SchemaResolver,
  avroTypeForSchema,
  parseSchema,
  type DataSchema,
  type NamedDataSchema,
} from '../../../src';

export const FIXTURES = join(__dirname, '../../fixtures/pegasus');

/** Every top-level schema of the fixture tree, parsed in one resolver. */
export function fixtureTree(): { resolver: SchemaResolver; tops: DataSchema[] } {
  const resolver = new SchemaResolver({ resolverPath: [FIXTURES] });
  const tops = resolver.parseDirectory(FIXTURES);
  return { resolver, tops };
}

/**
 * The fixture schemas that cannot be translated, by design: a union with aliases at the root has no field to
 * become a record for, and AllDefaults has a union default not of its first member (fine for us, not for Avro;
 * it translates only where defaults are not translated, under DO_NOT_TRANSLATE).
 */
export const UNTRANSLATABLE: ReadonlyMap<string, 'always' | 'when defaults are translated'> = new Map([
  ['com.example.photos.MediaContent', 'always'],
  ['com.example.photos.PhotoEvent', 'always'],
  ['org.acme.graph.AllDefaults', 'when defaults are translated'],
]);

/**
 * avsc must accept every schema the translation writes, defaults included (avsc checks them). The type is
 * built by avsc's `Type.forSchema` through avroTypeForSchema, whose exact longs accept long defaults beyond
 * 2^53 (JSON.parse would round them, and avsc's own long refuses them).
 */
export function expectAvscAccepts(avroJson: string): avsc.Type {
  return avroTypeForSchema(avroJson);
}

/**
 * The two variants of a schema text with a `⟪...⟫` marker: the type as written, and the type wrapped in a
 * typeref (typerefs are dereferenced, so both must translate the same way).
 */
export function typerefVariants(text: string): string[] {
  if (!text.includes('⟪')) return [text];
  return [
    text.replace(/⟪/g, '').replace(/⟫/g, ''),
    text.replace(/⟪/g, '{ "type": "typeref", "name": "Ref", "ref": ').replace(/⟫/g, ' }'),
  ];
}

export function parse(text: string): DataSchema {
  return parseSchema(text);
}

/** A record `foo` with these fields (text inside the `fields` array). */
export function foo(fields: string, extra = ''): string {
  return `{ "type": "record", "name": "foo", "fields": [ ${fields} ]${extra} }`;
}

/** The compact Avro record `foo` with these fields. */
export function avroFoo(fields: string, extra = ''): string {
  return `{"type":"record","name":"foo","fields":[${fields}]${extra}}`;
}

/** The full name of a top-level fixture schema (every one is named). */
export function fullName(schema: DataSchema): string {
  return (schema as NamedDataSchema).getFullName();
}
