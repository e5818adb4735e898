// A form's fields by name: each one's element id (a refused check moves focus there) and the
// one field a refused submit marked (aria-invalid), until the listener changes it.
import { useId, useState } from 'react';

export function useInvalidField<F extends string>() {
  const prefix = useId();
  const [invalid, setInvalid] = useState<F | null>(null);
  const idOf = (f: F) => `${prefix}-${f}`;
  return {
    invalid,
    setInvalid,
    idOf,
    /**
     * Field `f`'s props for the upload kit's fields: its id, its name (the multipart field's),
     * the mark, and an onChange that clears the mark and hands the value to `set`.
     */
    bind: <V>(f: F, set: (value: V) => void) => ({
      id: idOf(f),
      name: f,
      invalid: invalid === f,
      onChange: (value: V) => {
        if (invalid === f) setInvalid(null);
        set(value);
      },
    }),
  };
}
