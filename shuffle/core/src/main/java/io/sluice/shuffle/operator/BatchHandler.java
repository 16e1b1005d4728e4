package io.sluice.shuffle.operator;

/**
 * Receives each bucket batch a shuffle operator emits when it is driven by push
 * ({@link ShuffleOperator#push}, {@link ShuffleOperator#run}). The batch and its vectors are valid
 * only until {@link #onBatch} returns: pooled memory is released right after, so a handler that
 * keeps rows must copy them.
 */
@FunctionalInterface
public interface BatchHandler {
    /**
     * Handles one batch; {@link Batch#shuffleIdx()} is its bucket.
     *
     * @param batch the bucket batch, valid only until this method returns
     */
    void onBatch(Batch batch);
}
