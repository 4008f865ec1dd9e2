package dev.twstester;

/**
 * How the RocksDB state store encodes state rows: Spark's
 * {@code spark.sql.streaming.stateStore.encodingFormat}. It decides which changes of a state
 * variable's value type a restart with a new processor version accepts (see
 * {@code TwsSimulator#restartWith}): with {@link #UNSAFE_ROW} (Spark's default) a value schema may
 * change only in field names and nullability, with {@link #AVRO} it may evolve as Avro's schema
 * resolution allows (fields added or removed, {@code int} to {@code long} and the other Avro
 * promotions).
 *
 * <pre>{@code
 * TwsQuery.builder(MyProcessor::new) ... .stateEncoding(StateEncoding.AVRO).build();
 * }</pre>
 */
public enum StateEncoding {
    /** {@code unsaferow}: Spark's UnsafeRow bytes, the default. */
    UNSAFE_ROW("unsaferow"),
    /** {@code avro}: Avro-encoded rows, whose value schemas may evolve across restarts. */
    AVRO("avro");

    private final String conf;

    StateEncoding(String conf) {
        this.conf = conf;
    }

    /** The value of {@code spark.sql.streaming.stateStore.encodingFormat}: {@code "unsaferow"} or {@code "avro"}. */
    public String conf() {
        return conf;
    }

    /** Spark's session setting this encoding is chosen with. */
    public static final String CONF = "spark.sql.streaming.stateStore.encodingFormat";
}
