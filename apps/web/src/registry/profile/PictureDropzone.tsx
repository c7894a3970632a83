import CloudUploadIcon from '@mui/icons-material/CloudUploadOutlined';
import Box from '@mui/material/Box';
import FormHelperText from '@mui/material/FormHelperText';
import Typography from '@mui/material/Typography';
import { PICTURE_SIZE_MESSAGE, PICTURE_TYPE_MESSAGE, PROFILE_PICTURE_MAX_BYTES } from '@wfc/contract';
import { useEffect, useMemo, useState } from 'react';
import { ErrorCode, type FileRejection, useDropzone } from 'react-dropzone';
import { REQUIRED_MARK } from '../record/fields/required';

/** The formats the server accepts (jpg, jpeg, png and webp), by type and by extension. */
const ACCEPT = {
  'image/jpeg': ['.jpg', '.jpeg'],
  'image/png': ['.png'],
  'image/webp': ['.webp'],
};

export const DROP_TEXT = 'Drag and drop a file here, or click to select a file';

/**
 * The server's words for a refused file, not react-dropzone's own, which list MIME types
 * ('File type must be image/jpeg,.jpg,...').
 */
const REFUSALS: Partial<Record<string, string>> = {
  [ErrorCode.FileInvalidType]: PICTURE_TYPE_MESSAGE,
  [ErrorCode.FileTooLarge]: PICTURE_SIZE_MESSAGE,
  [ErrorCode.TooManyFiles]: 'Choose one file',
};

/**
 * Pure: what to say about the files the drop zone refused, each reason once. Only the reasons are
 * read: a refused file is react-dropzone's FileWithPath, which a plain File is not.
 */
export const refusalMessages = (rejections: readonly Pick<FileRejection, 'errors'>[]): string[] => [
  ...new Set(rejections.flatMap((r) => r.errors.map((e) => REFUSALS[e.code] ?? e.message))),
];

interface Props {
  id: string;
  label: string;
  value: File | null;
  onChange(file: File): void;
  error?: string;
  /** Marked with the asterisk the form's other required fields carry. */
  required?: boolean;
}

/**
 * An object URL for the picture, released when the picture changes or the screen closes. Made
 * while rendering and released only after the next picture's URL is on screen: released first, the
 * image still showing it could be asked for a URL that no longer exists.
 */
export function usePreview(file: File | null): string | null {
  const url = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(
    () => () => {
      if (url) URL.revokeObjectURL(url);
    },
    [url],
  );
  return url;
}

/** Exactly one picture; a refused file is explained in the server's words. */
export function PictureDropzone({ id, label, value, onChange, error, required }: Props) {
  const preview = usePreview(value);
  const [rejections, setRejections] = useState<FileRejection[]>([]);
  const { getRootProps, getInputProps, isDragActive } = useDropzone({
    accept: ACCEPT,
    maxFiles: 1,
    multiple: false,
    maxSize: PROFILE_PICTURE_MAX_BYTES,
    onDrop(accepted, refused) {
      setRejections(refused);
      if (accepted[0]) onChange(accepted[0]);
    },
  });
  const messages = refusalMessages(rejections);
  const errorId = `${id}-message`;

  const image = preview && (
    <Box
      component="img"
      src={preview}
      alt={value ? `${label}: ${value.name}` : label}
      sx={{
        width: 128,
        height: 128,
        objectFit: 'cover',
        borderRadius: '50%',
        border: 1,
        borderColor: 'divider',
        bgcolor: 'background.default',
        flexShrink: 0,
      }}
    />
  );

  const invalid = Boolean(error) || messages.length > 0;
  return (
    <Box>
      <Typography
        component="label"
        htmlFor={id}
        variant="body2"
        color="text.secondary"
        sx={{ display: 'block', mb: 1, ...(required ? REQUIRED_MARK : {}) }}
      >
        {label}
      </Typography>
      <Box
        {...getRootProps()}
        sx={{
          display: 'flex',
          alignItems: 'center',
          flexWrap: 'wrap',
          gap: 2.5,
          p: 2.5,
          border: 2,
          borderStyle: 'dashed',
          borderRadius: 2,
          borderColor: invalid ? 'error.main' : isDragActive ? 'primary.main' : 'divider',
          bgcolor: isDragActive ? 'action.hover' : 'background.default',
          cursor: 'pointer',
          transition: 'border-color 120ms, background-color 120ms',
          '&:hover': { borderColor: invalid ? 'error.main' : 'primary.main' },
          '&:focus-visible': { outline: '3px solid', outlineColor: 'primary.light', outlineOffset: 2 },
        }}
      >
        <input
          {...getInputProps({
            id,
            'aria-invalid': invalid,
            'aria-describedby': invalid ? errorId : undefined,
          })}
        />
        {image}
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, minWidth: 0, flex: '1 1 200px' }}>
          <CloudUploadIcon color="action" />
          <Box sx={{ minWidth: 0 }}>
            <Typography>{DROP_TEXT}</Typography>
            <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
              {value ? value.name : 'JPG, JPEG, PNG or WEBP'}
            </Typography>
          </Box>
        </Box>
      </Box>
      {invalid && (
        <FormHelperText id={errorId} error component="div">
          {[error, ...messages]
            .filter((m): m is string => Boolean(m))
            .map((m) => (
              <Box component="span" key={m} sx={{ display: 'block' }}>
                {m}
              </Box>
            ))}
        </FormHelperText>
      )}
    </Box>
  );
}
