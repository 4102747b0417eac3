import { type ChangeEvent, useRef, useState } from 'react';
import { FormattedMessage } from 'react-intl';

/**
 * A file input with a translated button and the chosen file's name: the native picker's button and
 * "no file chosen" come in the browser's language, not the user's. The real input stays in the page
 * (visually hidden, focusable, named by the field's <label htmlFor={id}>); the button only opens it.
 */
export function FileInput({
  id,
  accept,
  onChange,
  testId,
  describedBy,
}: {
  id: string;
  accept: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  testId: string;
  describedBy?: string;
}) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [fileName, setFileName] = useState<string | null>(null);
  return (
    <div className="file-input">
      <input
        ref={inputRef}
        id={id}
        type="file"
        className="visually-hidden"
        accept={accept}
        aria-describedby={describedBy}
        onChange={(event) => {
          setFileName(event.target.files?.[0]?.name ?? null);
          onChange(event);
        }}
        data-testid={testId}
      />
      {/* Out of the tab order and hidden from assistive technology: the input itself is the control. */}
      <button type="button" className="button" tabIndex={-1} aria-hidden="true" onClick={() => inputRef.current?.click()} data-testid={`${testId}-button`}>
        <FormattedMessage id="components.fileInput.choose" />
      </button>
      <span className="file-input-name" title={fileName ?? undefined} data-testid={`${testId}-name`}>
        {fileName ?? <FormattedMessage id="components.fileInput.none" />}
      </span>
    </div>
  );
}
