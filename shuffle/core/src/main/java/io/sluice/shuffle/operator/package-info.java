/**
 * The shuffle operator and the batch it routes: {@link
 * io.sluice.shuffle.operator.Batch} (the unit that flows between operators, with the
 * {@code shuffleIdx} dispatch reads), {@link io.sluice.shuffle.operator.ShuffleOperator} (routes a
 * batch whole when its zonemap lies in one bucket, else splits it row by row into pooled bucket
 * buffers), its options, counters and push handler.
 *
 * <p>Depends on {@code io.sluice.shuffle} (bucket functions) and the format (vectors, zonemaps).
 */
package io.sluice.shuffle.operator;
