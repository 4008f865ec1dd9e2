package dev.twstester.internal;

/**
 * Where a value of an external {@code Row} comes from, rendered as the Catalyst expression Spark's
 * lenient row encoder evaluates for it and its {@code INVALID_EXTERNAL_TYPE} names
 * ({@code getexternalrowfield(...)}, {@code lambdavariable(...)}); only rendered on failure.
 */
sealed interface RowSource {
    /** The row itself: {@code AssertNotNull} of the serializer's input. */
    RowSource TOP = new Top();

    String sql();

    /** The top-level row. */
    record Top() implements RowSource {
        @Override
        public String sql() {
            return "assertnotnull(input[0, org.apache.spark.sql.Row, true])";
        }
    }

    /** Field {@code index} of the row {@code parent} converts ({@code GetExternalRowField}). */
    record Field(RowValues<?> parent, int index, String name) implements RowSource {
        @Override
        public String sql() {
            String row = parent.source instanceof Top ? parent.source.sql() : parent.validatedSql();
            return "getexternalrowfield(" + row + ", " + index + ", " + name + ")";
        }
    }

    /** An element, key or value of a collection: the lambda variable of {@code MapObjects} or {@code ExternalMapToCatalyst}. */
    record Lambda(String name, boolean nullable, int id) implements RowSource {
        @Override
        public String sql() {
            return "lambdavariable(" + name + ", ObjectType(class java.lang.Object), " + nullable + ", -" + id + ")";
        }
    }
}
