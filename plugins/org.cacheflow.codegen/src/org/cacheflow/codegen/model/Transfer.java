package org.cacheflow.codegen.model;

/**
 * A buffer whose producer and consumer run on different nodes, sent over MPI point-to-point: one message per
 * graph iteration, {@code slots} iterations in flight. The sender's node holds {@code slots} send buffers (the
 * producer writes iteration {@code i} into slot {@code i % slots}, then a persistent send of that slot starts),
 * the receiver's node {@code slots} receive buffers (persistent receives posted ahead; the consumer reads the
 * slot in place, then its receive is posted again for iteration {@code i + slots}).
 *
 * @param index position in {@link CodeProject#transfers()}
 * @param name C identifier stem of its request arrays ({@code cf_send_NAME}, {@code cf_recv_NAME})
 * @param sendBuffer the static buffer of the send slots (on the sender's core)
 * @param receiveBuffer the static buffer of the receive slots (on the receiver's core)
 * @param bytes message size (one slot)
 * @param slots k
 * @param sender the producing core
 * @param receiver the consuming core
 * @param senderNode the sender's node (MPI rank)
 * @param receiverNode the receiver's node (MPI rank)
 * @param tag the MPI tag of its messages (dense: the transfer's index)
 * @param description what it carries, for comments and error messages
 */
public record Transfer(int index, String name, String sendBuffer, String receiveBuffer, long bytes, int slots,
    int sender, int receiver, int senderNode, int receiverNode, int tag, String description) {

  public Transfer {
    if (slots < 1) {
      throw new IllegalArgumentException("slots must be at least 1, got " + slots);
    }
    if (senderNode == receiverNode) {
      throw new IllegalArgumentException("transfer " + name + " does not cross nodes (node " + senderNode + ")");
    }
  }
}
