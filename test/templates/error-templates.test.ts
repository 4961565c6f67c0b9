/** Generated error classes: records that are real Errors. */
import { DataMap, ErrorTemplate, GetMode, RequiredFieldNotPresentException } from '../../src';
import { BindingError } from '../generated/binding/com/example/binding/BindingError';
import { PhotoNotFoundError } from '../generated/fixtures/com/example/photos/PhotoNotFoundError';

describe('a generated error class', () => {
  it('is an Error that can be thrown and caught', () => {
    const thrown = (): never => {
      throw new BindingError().setMessage('boom').setCode(418);
    };
    expect(thrown).toThrow(BindingError);
    try {
      thrown();
    } catch (err) {
      expect(err).toBeInstanceOf(Error);
      expect(err).toBeInstanceOf(ErrorTemplate);
      expect(err instanceof BindingError && err.getCode()).toBe(418);
      expect((err as Error).message).toBe('boom');
      expect((err as Error).name).toBe('BindingError');
      expect((err as Error).stack).toContain('BindingError');
    }
  });

  it('has the record accessors, modes and defaults', () => {
    const e = new BindingError();
    expect(e.getCode()).toBe(500);
    expect(e.getCode(GetMode.NULL)).toBeUndefined();
    expect(() => e.getMessage()).toThrow(RequiredFieldNotPresentException);
    expect(e.message).toBe('{}'); // without a message field, the data
  });

  it('follows its data', () => {
    const data = new DataMap({ message: 'first' });
    const e = new BindingError(data);
    expect(e.data()).toBe(data);
    e.setMessage('second');
    expect(e.message).toBe('second');
    expect(e.toString()).toBe('BindingError: second');
    expect(e.clone()).toBeInstanceOf(BindingError);
    expect(e.clone().equals(e) && e.copy().equals(e)).toBe(true);
    expect(e.schema().isErrorRecord()).toBe(true);
  });

  it('includes the fields of an included error record', () => {
    const e = new PhotoNotFoundError().setCode(404).setMessage('no photo 7').setPhotoId(7);
    expect(e.getRetryable()).toBe(false);
    expect(e.message).toBe('no photo 7');
    expect(PhotoNotFoundError.fields().photoId().toString()).toBe('/photoId');
  });
});
