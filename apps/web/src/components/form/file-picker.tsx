import { PaperClipOutlined, UploadOutlined } from '@ant-design/icons';
import { formatFileSize } from '@cloud-classroom/shared/file-size';
import { Button, Flex, Typography, Upload } from 'antd';

export type FilePickerProps = {
  /** The button's words ("Choose a file"). */
  chooseLabel: string;
  /** Endings offered by the browser's chooser (`.sqlite,.db`); any file when absent. */
  accept?: string;
  /** From the enclosing `Form.Item`. */
  value?: File;
  onChange?: (file: File) => void;
  id?: string;
};

/**
 * A form field holding one chosen file: a button to choose it, then its name and size. Nothing
 * travels until the form submits, so its rules (type, size) refuse a wrong file first; the
 * dialog's submit sends it with `uploadWithProgress`.
 */
export function FilePicker({ chooseLabel, accept, value, onChange, id }: FilePickerProps) {
  return (
    <Flex vertical gap={4} align="flex-start">
      <Upload
        accept={accept}
        showUploadList={false}
        beforeUpload={(file) => {
          onChange?.(file);
          return Upload.LIST_IGNORE;
        }}
      >
        <Button id={id} icon={<UploadOutlined />}>
          {chooseLabel}
        </Button>
      </Upload>
      {value && (
        <Typography.Text className="picked-file" style={{ wordBreak: 'break-all' }}>
          <PaperClipOutlined /> {value.name} ({formatFileSize(value.size)})
        </Typography.Text>
      )}
    </Flex>
  );
}
