/**
 * What this machine charges for memory a process touches for the first time, against
 * touching it again. On some virtual machines the host hands a guest page over only when
 * it is first written, and takes it back once the guest frees it (free page reporting):
 * there every fresh megabyte costs milliseconds, and a bench that allocates gigabytes (a
 * rebuild writes a 1.3 GB file through the page cache and holds a heap of a gigabyte)
 * takes half again to twice as long as on a machine whose memory is warm. The figure
 * makes results from two such machines comparable.
 */
export interface MemoryTouch {
  /** Milliseconds a MiB, writing a block the process has just allocated. */
  firstMsPerMb: number;
  /** Milliseconds a MiB, writing the same block again. */
  againMsPerMb: number;
}

const BLOCK_MB = 256;

export const measureMemoryTouch = (): MemoryTouch => {
  // Large enough that malloc maps it fresh from the kernel, never from its own free lists.
  const block = Buffer.allocUnsafeSlow(BLOCK_MB * 2 ** 20);
  const timed = (value: number): number => {
    const started = process.hrtime.bigint();
    block.fill(value);
    return Number(process.hrtime.bigint() - started) / 1e6 / BLOCK_MB;
  };
  const first = timed(1);
  const again = timed(2);
  const round = (value: number) => Math.round(value * 1000) / 1000;
  return { firstMsPerMb: round(first), againMsPerMb: round(again) };
};
