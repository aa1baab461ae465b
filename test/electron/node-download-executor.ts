/**
 * builder-util's Node executor with the download() electron-updater calls, which only its Electron executor
 * has. The download itself is the shared HttpExecutor.doDownload, the code that checks the sha512 for both.
 */
import { configureRequestOptions, configureRequestUrl, type DownloadOptions } from 'builder-util-runtime';
import type { RequestOptions } from 'node:http';
import { NodeHttpExecutor } from 'builder-util/out/nodeHttpExecutor';

export class NodeDownloadExecutor extends NodeHttpExecutor {
  download(url: URL, destination: string, options: DownloadOptions): Promise<string> {
    return options.cancellationToken.createPromise<string>((resolve, reject, onCancel) => {
      const request: RequestOptions = { headers: options.headers ?? undefined };
      configureRequestUrl(url, request);
      configureRequestOptions(request);
      this.doDownload(
        request,
        {
          destination,
          options,
          onCancel,
          responseHandler: null,
          callback: (error) => (error ? reject(error) : resolve(destination)),
        },
        0,
      );
    });
  }
}
