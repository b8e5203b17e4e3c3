// privlab stub (our code, not SecGraph's): SecGraph's "-a Community" attack calls Nilizadeh et
// al.'s community-enhanced de-anonymization (deAnon.matching.Comm_Enhanced), shipped only as a
// prebuilt jar, not as source.  Only the one method SecGraph calls is declared, and it refuses to
// run: the stub can make that attack fail loudly, never change its result.
package deAnon.matching;

public final class Comm_Enhanced {
    private Comm_Enhanced() {}

    public static void main(String[] args) {
        throw new UnsupportedOperationException(
                "Comm_Enhanced is not part of SecGraph's public source (privlab build stub)");
    }
}
