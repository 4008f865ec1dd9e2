package dev.twstester.samples.mutants;

import dev.twstester.samples.chain.HourlyDigest;

/**
 * Bug: the hour's digest timer is 1 ms before the hour's end, so a watermark on that millisecond
 * closes the hour early.
 */
class DigestTimerOneMsEarly extends HourlyDigest {
    private static final long serialVersionUID = 1L;
    static final String BUG =
            "the hour's digest timer is 1 ms before the hour's end, so a watermark on that millisecond closes the hour early";

    @Override
    protected long digestTimeOf(String hour) {
        return super.digestTimeOf(hour) - 1;
    }
}
