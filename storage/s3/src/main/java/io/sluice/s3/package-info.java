/**
 * Stores on S3-compatible object storage: a store at {@code s3://BUCKET/PREFIX} has the layout of a store directory,
 * one object per file. Readers mirror the small files (manifests, zonemap indexes, statistics) into a local directory
 * and fetch block files into a {@link io.sluice.s3.BlockCache} on local disk, from where they are memory-mapped as
 * a local store's are. Writers write into a local directory and upload block files first, each manifest last, under a
 * lock object. Depends on sluice-format, sluice-storage and the AWS SDK; only the command line (perf) uses it.
 */
package io.sluice.s3;
