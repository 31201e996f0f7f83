package org.cacheflow.codegen.build;

import java.util.List;
import java.util.Map;

import org.cacheflow.codegen.model.Channel;
import org.cacheflow.codegen.model.StaticBuffer;
import org.cacheflow.codegen.model.Transfer;

/**
 * The memory {@link BufferLayout} gives the roots, and the runtime objects that hand them between cores.
 *
 * @param buffers static buffers and pools
 * @param channels rdy-ack channels, by index
 * @param transfers inter-node transfers, by index
 * @param channelOfRoot per {@link StorageKind#CHANNEL} root, its channel
 * @param transferOfRoot per {@link StorageKind#TRANSFER} root, its transfer
 * @param semaphoreOfRoot per {@link StorageKind#SEMAPHORE} root, the semaphore its writer posts
 * @param semaphoreStarts every semaphore's initial value, by number (those of {@link Signals} first)
 * @param heapBytes the address space the buffer allocator reserves
 */
record Layout(List<StaticBuffer> buffers, List<Channel> channels, List<Transfer> transfers,
    Map<BufferId, Channel> channelOfRoot, Map<BufferId, Transfer> transferOfRoot, Map<BufferId,
        Integer> semaphoreOfRoot,
    List<Integer> semaphoreStarts, long heapBytes) {
}
