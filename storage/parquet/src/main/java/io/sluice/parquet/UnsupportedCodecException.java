package io.sluice.parquet;

import io.sluice.format.StorageException;

/** A Parquet file whose pages use a compression codec Sluice does not read; the message names the file and codec. */
public final class UnsupportedCodecException extends StorageException {
    private static final long serialVersionUID = 1L;

    /** An error saying which file, which codec, and which codecs Sluice reads. */
    UnsupportedCodecException(final String message) {
        super(message);
    }
}
