import { Form, Progress } from 'antd';
import { useState } from 'react';
import type { UploadProgress as Progressed } from '../../lib/upload-with-progress';

/**
 * The progress of the upload a dialog is sending: `track` runs it with an `onProgress` that moves
 * the bar (from 0), and the bar goes once the upload settles, sent or refused.
 */
export function useUploadProgress() {
  const [percent, setPercent] = useState<number>();
  const track = async <T,>(upload: (onProgress: (progress: Progressed) => void) => Promise<T>): Promise<T> => {
    setPercent(0);
    try {
      return await upload((progress) => setPercent(progress.percent));
    } finally {
      setPercent(undefined);
    }
  };
  return { percent, track };
}

/** The bar under an upload dialog's fields while its bytes travel; nothing otherwise. */
export function UploadProgressBar({ percent, label }: { percent: number | undefined; label: string }) {
  if (percent === undefined) return null;
  return (
    <Form.Item label={label} className="upload-progress">
      <Progress percent={percent} status="active" aria-label={label} />
    </Form.Item>
  );
}
