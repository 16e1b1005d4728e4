package io.sluice.s3;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.blobstore.ForwardingBlobStore;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The test server's objects, which can be told to fail the next GETs of block files with HTTP 500 InternalError
 * (what a failing or restarting server answers, and the SDK retries), and which count the GETs of block files they
 * saw.
 */
final class FailingBlobStore extends ForwardingBlobStore {
    private static final String INTERNAL_ERROR = "We encountered an internal error. Please try again.";
    private final AtomicInteger failuresLeft = new AtomicInteger();
    private final AtomicLong blockGets = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();

    FailingBlobStore(final BlobStore delegate) {
        super(delegate);
    }

    /** The next {@code n} GETs of block files answer 500 InternalError. */
    void failNextBlockGets(final int n) {
        failuresLeft.set(n);
    }

    /** GETs of block files seen, failed or not. */
    long blockGets() {
        return blockGets.get();
    }

    /** GETs of block files answered with 500. */
    long failed() {
        return failed.get();
    }

    @Override
    public ResponseInputStream<GetObjectResponse> getBlob(final GetObjectRequest request) {
        if (request.key().contains("/block-")) {
            blockGets.incrementAndGet();
            if (failuresLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                failed.incrementAndGet();
                throw S3Exception.builder().statusCode(500).message(INTERNAL_ERROR)
                        .awsErrorDetails(AwsErrorDetails.builder().errorCode("InternalError")
                                .errorMessage(INTERNAL_ERROR).build())
                        .build();
            }
        }
        return super.getBlob(request);
    }
}
