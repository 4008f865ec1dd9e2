package dev.twstester.sim;

/** How a state value is kept: encoded as Spark keeps it, or by reference as Spark's TwsTester keeps it. */
interface Codec<T> {
    /** The stored form; encoding fails as Spark's encoder would. */
    Object store(T value);

    /** The value back: a new object when encoded, the same object when kept by reference. */
    T load(Object stored);

    @SuppressWarnings("unchecked")
    static <T> Codec<T> byReference() {
        return (Codec<T>) ByReference.INSTANCE;
    }

    /** Kept by reference, after checking that Spark's encoder takes the value as it is (else its error). */
    static <T> Codec<T> checked(KeyCodec<T> codec) {
        return new Codec<>() {
            @Override
            public Object store(T value) {
                if (!codec.acceptsAsIs(value)) {
                    return codec.decode(codec.encode(value));
                }
                return value;
            }

            @Override
            public T load(Object stored) {
                @SuppressWarnings("unchecked")
                T value = (T) stored;
                return value;
            }
        };
    }

    static <T> Codec<T> encoded(KeyCodec<T> codec) {
        return new Codec<>() {
            @Override
            public Object store(T value) {
                return codec.encode(value);
            }

            @Override
            public T load(Object stored) {
                return codec.decode((byte[]) stored);
            }
        };
    }

    /** Objects kept as they are. */
    final class ByReference implements Codec<Object> {
        static final ByReference INSTANCE = new ByReference();

        @Override
        public Object store(Object value) {
            return value;
        }

        @Override
        public Object load(Object stored) {
            return stored;
        }
    }
}
