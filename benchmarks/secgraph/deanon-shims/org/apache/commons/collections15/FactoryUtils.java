// privlab shim (our code): Nilizadeh et al.'s deAnon sources were written against JUNG 2.0.1, which
// used Apache commons-collections15 factories; Debian ships JUNG 2.1.1 (libjung-free-java), which
// takes Guava Suppliers instead.  The one call deAnon makes (MyGraph.getGraph, a Pajek reader that
// no attack path reaches) is given the Guava equivalent.  Compiled only when build.sh gets
// DEANON_SRC; see README.md.
package org.apache.commons.collections15;

import com.google.common.base.Supplier;

public final class FactoryUtils {
    private FactoryUtils() {}

    public static <T> Supplier<T> instantiateFactory(final Class<T> type) {
        return () -> {
            try {
                return type.getDeclaredConstructor().newInstance();
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        };
    }
}
