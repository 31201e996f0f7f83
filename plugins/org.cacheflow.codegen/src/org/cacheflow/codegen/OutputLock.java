package org.cacheflow.codegen;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * Holds an output folder while a generation puts its files in place, so that two generations into the same folder
 * at once (parallel Maven builds, CI jobs, two threads of one build) take turns: the second waits, then replaces the
 * first's output with its own whole. Between processes, an exclusive lock on {@code .NAME.lock} beside the folder
 * (kept there: deleting a lock file races with a process about to lock it); within one Java process, where such
 * locks do not exclude each other's threads, a lock per folder.
 */
final class OutputLock implements AutoCloseable {

  private static final ConcurrentMap<Path, ReentrantLock> IN_PROCESS = new ConcurrentHashMap<>();

  private final ReentrantLock inProcess;
  private final FileChannel channel;
  private final FileLock lock;

  private OutputLock(ReentrantLock inProcess, FileChannel channel, FileLock lock) {
    this.inProcess = inProcess;
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Locks {@code folder} (absolute, normalised; its parent exists), waiting for another generation to put its
   * output in place first.
   *
   * @param waiting told once, with the folder, when the lock is held elsewhere and this one waits
   */
  static OutputLock acquire(Path folder, Consumer<Path> waiting) throws IOException {
    ReentrantLock inProcess = IN_PROCESS.computeIfAbsent(folder, key -> new ReentrantLock());
    boolean told = false;
    if (!inProcess.tryLock()) {
      waiting.accept(folder);
      told = true;
      inProcess.lock();
    }
    FileChannel channel = null;
    try {
      channel = FileChannel.open(folder.resolveSibling("." + folder.getFileName() + ".lock"),
          StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      FileLock lock = channel.tryLock();
      if (lock == null) {
        if (!told) {
          waiting.accept(folder);
        }
        lock = channel.lock();
      }
      return new OutputLock(inProcess, channel, lock);
    } catch (IOException | RuntimeException e) {
      if (channel != null) {
        channel.close();
      }
      inProcess.unlock();
      throw e;
    }
  }

  @Override
  public void close() throws IOException {
    try {
      lock.release();
      channel.close();
    } finally {
      inProcess.unlock();
    }
  }
}
