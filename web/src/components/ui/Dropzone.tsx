import { useRef, useState, type ReactNode } from 'react';

interface DropzoneProps {
  /** What the zone is called for screen readers ("Drag and drop files here or click to choose"). */
  label: string;
  testId: string;
  /** The hidden file input's name, test id and accepted types; `multiple` lets several files be chosen at once. */
  input: { name: string; testId: string; accept: string; multiple?: boolean };
  /** Files dropped on the zone or chosen in the file dialog. */
  onFiles: (files: FileList) => void;
  /** What the zone shows: an icon and its texts. */
  children: ReactNode;
}

/**
 * A zone to drop files on, or to click (or press Enter or Space on) to choose them: the one way the screens take files
 * from the user. It is marked `is-dragging` while files are dragged over it.
 */
export function Dropzone({ label, testId, input, onFiles, children }: DropzoneProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  return (
    <div
      className={`dropzone ${dragging ? 'is-dragging' : ''}`}
      role="button"
      tabIndex={0}
      aria-label={label}
      data-testid={testId}
      onClick={() => inputRef.current?.click()}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          inputRef.current?.click();
        }
      }}
      onDragEnter={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragOver={(e) => {
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
      }}
      onDragLeave={(e) => {
        if (e.currentTarget === e.target) setDragging(false);
      }}
      onDrop={(e) => {
        e.preventDefault();
        setDragging(false);
        onFiles(e.dataTransfer.files);
      }}
    >
      {children}
      <input
        ref={inputRef}
        type="file"
        name={input.name}
        multiple={input.multiple}
        accept={input.accept}
        hidden
        data-testid={input.testId}
        onChange={(e) => {
          if (e.target.files) onFiles(e.target.files);
          e.target.value = '';
        }}
      />
    </div>
  );
}
