import { SITE_HEADERS } from '../listings/listings-api';

export type UploadOutcome = { ok: true; id: string } | { ok: false; status: number; error: string };

/**
 * One photo to POST /api/upload/multiple (multipart, `images` field), with progress: XMLHttpRequest,
 * because fetch reports no upload progress. One request per photo, so each shows its own bar.
 */
export function uploadPhoto(file: File, onProgress: (fraction: number) => void): { done: Promise<UploadOutcome>; abort: () => void } {
  const xhr = new XMLHttpRequest();
  const done = new Promise<UploadOutcome>((resolve) => {
    xhr.open('POST', '/api/upload/multiple');
    for (const [name, value] of Object.entries(SITE_HEADERS)) xhr.setRequestHeader(name, value);
    xhr.responseType = 'json';
    xhr.timeout = 120_000;
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    });
    xhr.addEventListener('load', () => {
      const body = (xhr.response ?? {}) as { success?: boolean; data?: { images?: Array<{ id?: unknown }> }; error?: unknown };
      const id = body.data?.images?.[0]?.id;
      if (xhr.status >= 200 && xhr.status < 300 && typeof id === 'string') resolve({ ok: true, id });
      else resolve({ ok: false, status: xhr.status, error: typeof body.error === 'string' ? body.error : 'Failed to upload images' });
    });
    const failed = () => resolve({ ok: false, status: 0, error: 'Failed to upload images' });
    xhr.addEventListener('error', failed);
    xhr.addEventListener('timeout', failed);
    xhr.addEventListener('abort', () => resolve({ ok: false, status: -1, error: 'Upload cancelled' }));
    const form = new FormData();
    form.append('images', file, file.name);
    xhr.send(form);
  });
  return { done, abort: () => xhr.abort() };
}
