/** The layer a frame belongs to: the npm package, or the project folder, or a V8/node bucket. */
export const layerOf = (url: string, functionName: string): string => {
  if (functionName === '(garbage collector)') return '(garbage collector)';
  if (functionName === '(idle)') return '(idle)';
  if (functionName === '(program)') return '(program: native, not attributed)';
  if (!url) return `(native: ${functionName || 'anonymous'})`;
  const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (packageMatch) return packageMatch[1];
  if (url.startsWith('node:internal/')) return `node:internal/${url.slice(14).split('/')[0].replace(/\.js$/, '')}`;
  if (url.startsWith('node:')) return url;
  const projectMatch = /dist\/((?:apps|libs)\/[^/]+\/src\/[^/]+|bench\/src|test)/.exec(url);
  if (projectMatch) return projectMatch[1];
  return url;
};
