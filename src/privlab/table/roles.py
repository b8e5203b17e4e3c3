"""Every column of a table to release has a role; likely direct identifiers are detected.

Roles follow seed 000 §2.3: a *quasi-identifier* is generalized, a *sensitive* attribute is
protected by the privacy models, an *identifying* attribute is removed, and an *insensitive*
one is released unchanged.  A release never carries a column whose role nobody declared:
:func:`assign_roles` refuses undeclared columns, listing them with a fix, unless the caller
chose to keep them (``insensitive=[...]`` or ``keep_other_columns=True``).

Detection of likely direct identifiers (:func:`identifier_hint`) combines two signals:

* the column's **name** matches one of the identifier categories of the HIPAA Safe Harbor
  method (45 CFR §164.514(b)(2)(i)): names; geographic subdivisions smaller than a state
  (street address, city, county, ZIP code); dates related to a person (birth, admission,
  discharge, death); telephone and fax numbers; e-mail addresses; social security numbers;
  medical record, health plan, account and certificate/licence numbers; vehicle and device
  identifiers; URLs; IP addresses; biometric identifiers; photographs; any other unique
  identifying number or code.  Names are split into words (``PatientName``, ``date_of_birth``,
  ``e-mail`` → ``patient name``, ``date of birth``, ``e mail``) and compared with each
  category's words and compound spellings;
* a **text** column (not every value a number; ``000123`` is a code) of at least
  :data:`MIN_ROWS` present cells whose values are distinct on at least :data:`UNIQUE_SHARE`
  of them — a free-text or code column that singles out (nearly) every row.

Geography and dates are quasi-identifiers by nature (generalize them, or remove them); every
other category is a direct identifier (remove it).  Undeclared columns that match are named
in the error with the fix; declared columns that match give warnings, returned as data
(:attr:`ColumnRoles.warnings`) for the caller to show: an insensitive (kept) column that looks
like any identifier, and a quasi-identifier or sensitive column whose name says it is a direct
identifier.  Detection is a safety net, not a guarantee: a column with an innocent name and
repeated values can still identify people.

Complexity: O(rows) per text column checked for uniqueness (one hash count), O(1) per name.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import polars as pl

from privlab.errors import ConfigError
from privlab.table.hierarchy_builders import LEADING_ZERO

#: Fewest present cells for the uniqueness test (in a tiny table every column is unique).
MIN_ROWS = 20
#: Share of distinct values among present cells from which a text column looks like an id.
UNIQUE_SHARE = 0.9


@dataclass(frozen=True)
class _Category:
    """A HIPAA Safe Harbor identifier category and how its columns are usually named."""

    what: str  #: what the column seems to hold, for messages
    hipaa: str  #: the Safe Harbor category
    direct: bool  #: direct identifier (remove) rather than a quasi-identifier (generalize)
    words: frozenset[str]  #: whole words of the column name
    fragments: tuple[str, ...] = ()  #: spellings found anywhere in the name without separators


def _category(
    what: str, hipaa: str, words: str, fragments: str = "", *, direct: bool = True
) -> _Category:
    return _Category(what, hipaa, direct, frozenset(words.split()), tuple(fragments.split()))


#: Safe Harbor categories, most specific first (the first match names the column).
CATEGORIES: tuple[_Category, ...] = (
    _category(
        "an e-mail address", "electronic mail addresses", "email emails mail",
        "email",
    ),
    _category(
        "an IP address", "IP addresses", "ip ipv4 ipv6 ipaddr ipaddress", "ipaddress ipaddr",
    ),
    _category(
        "a URL", "web URLs", "url urls uri website homepage webpage", "website homepage",
    ),
    _category(
        "a telephone number", "telephone numbers",
        "phone phones telephone tel mobile cellphone msisdn", "phone",
    ),
    _category("a fax number", "fax numbers", "fax facsimile", "faxnumber faxno"),
    _category(
        "a social security number", "social security numbers", "ssn nino",
        "socialsecurity socialinsurance nationalinsurance nationalid taxpayerid taxid",
    ),
    _category(
        "a medical record number", "medical record numbers", "mrn",
        "medicalrecord patientid patientnumber patientno",
    ),
    _category(
        "a health plan number", "health plan beneficiary numbers", "beneficiary",
        "healthplan insuranceid insurancenumber memberid membernumber policynumber",
    ),
    _category(
        "an account number", "account numbers", "account acct iban",
        "accountnumber accountno accountid creditcard cardnumber bankaccount iban",
    ),
    _category(
        "a vehicle identifier", "vehicle identifiers and serial numbers, license plates",
        "vin plate numberplate licenseplate licenceplate",
        "licenseplate licenceplate numberplate vehicleid",
    ),
    _category(
        "a certificate or licence number", "certificate/license numbers",
        "certificate license licence passport",
        "licensenumber licencenumber certificatenumber passport driverslicense",
    ),
    _category(
        "a device identifier", "device identifiers and serial numbers",
        "imei imsi udid serial serialno macaddress mac", "deviceid serialnumber macaddress imei",
    ),
    _category(
        "a biometric identifier", "biometric identifiers",
        "biometric biometrics fingerprint fingerprints retina iris voiceprint faceprint",
        "biometric fingerprint voiceprint faceprint retinascan",
    ),
    _category(
        "a photograph", "full-face photographs and comparable images",
        "photo photos photograph picture portrait selfie headshot image", "photo",
    ),
    _category(
        "a date of a person's life", "dates related to an individual",
        "date dates dob birth birthday birthdate born admission admitted admit discharge "
        "discharged death died deceased",
        "dateofbirth birthdate birthday admissiondate dischargedate dateofdeath",
        direct=False,
    ),
    _category(
        "a street address", "geographic subdivisions smaller than a state",
        "address addr street latitude longitude lat lng lon gps coordinates geolocation",
        "streetaddress homeaddress postaladdress",
    ),
    _category(
        "a ZIP code or place", "geographic subdivisions smaller than a state",
        "zip zipcode postcode postal postalcode city town county precinct",
        "zipcode postcode postalcode",
        direct=False,
    ),
    _category(
        "a person's name", "names",
        "name names firstname lastname surname forename fullname givenname familyname "
        "maidenname nickname",
        "firstname lastname surname forename fullname givenname familyname maidenname",
    ),
    _category(
        "a unique identifier", "any other unique identifying number or code",
        "id ids uuid guid identifier username userid login",
        "uuid guid userid username customerid personid employeeid studentid",
    ),
)  # fmt: skip


def name_words(column: str) -> list[str]:
    """The words of a column name: ``'PatientName'`` → ``['patient', 'name']``.

    CamelCase and any non-alphanumeric character separate words; trailing digits are dropped
    (``address2`` → ``address``).
    """
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", " ", str(column))
    words = (re.sub(r"\d+$", "", w) for w in re.split(r"[^0-9A-Za-z]+", spaced.lower()))
    return [w for w in words if w]


def name_category(column: str) -> _Category | None:
    """The first Safe Harbor category whose words or spellings the column name contains."""
    words = name_words(column)
    compact = "".join(words)
    for cat in CATEGORIES:
        if any(w in cat.words for w in words) or any(f in compact for f in cat.fragments):
            return cat
    return None


def unique_share(series: pl.Series) -> float | None:
    """Share of distinct values among the present cells of a *text* column, else None.

    None for a column with fewer than :data:`MIN_ROWS` present cells or whose present cells
    are all numbers (numbers are measurements more often than ids) — digits with a leading
    zero (``000123``) are codes, hence text.  O(rows).
    """
    present = series.drop_nulls()
    if present.dtype == pl.String:
        present = present.filter(present != "")
    if present.len() < MIN_ROWS or present.dtype.is_numeric() or present.dtype == pl.Boolean:
        return None
    if present.dtype == pl.String:
        text = present.str.strip_chars()
        as_number = text.cast(pl.Float64, strict=False)
        if as_number.null_count() == 0 and not text.str.contains(LEADING_ZERO).any():
            return None
    return present.n_unique() / present.len()


@dataclass(frozen=True)
class IdentifierHint:
    """Why a column looks like an identifier, and the fix."""

    column: str
    reason: str
    direct: bool

    def fix(self) -> str:
        col = shlex.quote(self.column)
        if self.direct:
            return f"remove it: --identifying {col}"
        return f"generalize it (--qi {col} with a --hierarchy) or remove it (--identifying {col})"


def identifier_hint(
    frame: pl.DataFrame, column: str, *, by_values: bool = True
) -> IdentifierHint | None:
    """The hint for ``column`` from its name and (``by_values``) its uniqueness, or None."""
    cat = name_category(column)
    share = unique_share(frame[column]) if by_values else None
    unique = share is not None and share >= UNIQUE_SHARE
    if cat is None and not unique:
        return None
    parts = []
    if cat is not None:
        parts.append(f"looks like {cat.what} (HIPAA Safe Harbor identifier: {cat.hipaa})")
    if unique:
        assert share is not None
        parts.append(
            f"is text with a distinct value on {share:.0%} of its rows, like an identifier"
        )
    return IdentifierHint(column, " and ".join(parts), direct=cat is None or cat.direct or unique)


@dataclass(frozen=True)
class ColumnRoles:
    """The role of every column of a table, and warnings about the declaration."""

    quasi_identifiers: list[str]
    sensitive: list[str]
    identifying: list[str]
    insensitive: list[str]
    used: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def _names(values: Iterable[str] | str) -> list[str]:
    return [values] if isinstance(values, str) else [str(v) for v in values]


def assign_roles(
    frame: pl.DataFrame,
    *,
    quasi_identifiers: Sequence[str] | str,
    sensitive: Sequence[str] | str = (),
    identifying: Sequence[str] | str = (),
    insensitive: Sequence[str] | str = (),
    keep_other_columns: bool = False,
    used: Sequence[str] | str = (),
    source: str = "<data frame>",
    complete: bool = True,
) -> ColumnRoles:
    """Check a role declaration against ``frame`` and give every column its role.

    Each role takes a column name or a list of them.  Every named column must exist and have
    one role.  ``used``: columns the algorithm reads
    but does not release (e.g. a grouping column).  With ``complete`` (a release), a column
    with no role is an error listing each one with a fix (identifier-like ones first), unless
    ``keep_other_columns`` makes every undeclared column insensitive; warnings are computed
    (see the module docstring).  Without ``complete`` (assessing a table that is already a
    release), undeclared columns are insensitive and no warning is computed.
    """
    declared = {
        "quasi-identifier": _names(quasi_identifiers),
        "sensitive": _names(sensitive),
        "identifying": _names(identifying),
        "insensitive": _names(insensitive),
        "used": _names(used),
    }
    columns = set(frame.columns)
    seen: dict[str, str] = {}
    for role, cols in declared.items():
        for c in cols:
            if c not in columns:
                what = "column" if role == "used" else f"{role} column"
                raise ConfigError(
                    f"{source}: {what} {c!r} not found; the columns are {frame.columns}"
                )
            if role == "used":  # read by the algorithm; may also have a role
                seen.setdefault(c, role)
            elif c in seen and seen[c] == role:
                raise ConfigError(f"{role} column {c!r} is listed twice; list it once")
            elif c in seen:
                raise ConfigError(f"column {c!r} is both {seen[c]} and {role}; give it one role")
            else:
                seen[c] = role
    others = [c for c in frame.columns if c not in seen]
    insens = list(dict.fromkeys(declared["insensitive"]))
    warnings: list[str] = []
    if complete:
        if others and not keep_other_columns:
            raise ConfigError(_undeclared_message(frame, others, source))
        insens += others
        warnings = _warnings(frame, declared, others if keep_other_columns else [])
    else:
        insens += others
    return ColumnRoles(
        quasi_identifiers=declared["quasi-identifier"],
        sensitive=declared["sensitive"],
        identifying=declared["identifying"],
        insensitive=[c for c in frame.columns if c in set(insens)],
        used=declared["used"],
        warnings=warnings,
    )


def _undeclared_message(frame: pl.DataFrame, others: list[str], source: str) -> str:
    hints = {c: identifier_hint(frame, c) for c in others}
    ordered = [c for c in others if hints[c]] + [c for c in others if not hints[c]]
    lines = [
        f"{source}: {len(others)} column{'s' if len(others) > 1 else ''} "
        f"{'have' if len(others) > 1 else 'has'} no role, and a release carries only "
        "declared columns:"
    ]
    for c in ordered:
        hint = hints[c]
        if hint is not None:
            lines.append(f"  - {c!r} {hint.reason}; {hint.fix()}")
        else:
            q = shlex.quote(c)
            lines.append(
                f"  - {c!r}: declare it with --qi {q}, --sensitive {q}, --identifying {q} "
                f"(removed) or --insensitive {q} (released unchanged)"
            )
    lines.append(
        "Declare every column (from Python: quasi_identifiers=, sensitive=, identifying=, "
        "insensitive=), or pass --keep-other-columns (keep_other_columns=True) to release all "
        "undeclared columns unchanged."
    )
    return "\n".join(lines)


def _warnings(frame: pl.DataFrame, declared: dict[str, list[str]], kept: list[str]) -> list[str]:
    out = []
    how = {c: "--insensitive" for c in declared["insensitive"]}
    how.update({c: "--keep-other-columns" for c in kept})
    for c, flag in how.items():
        hint = identifier_hint(frame, c)
        if hint is not None:
            out.append(
                f"column {c!r} is released unchanged ({flag}) but {hint.reason}; {hint.fix()}"
            )
    for role in ("quasi-identifier", "sensitive"):
        for c in declared[role]:
            hint = identifier_hint(frame, c, by_values=False)
            if hint is not None and hint.direct:
                effect = (
                    "generalizing it may still single people out"
                    if role == "quasi-identifier"
                    else "it is released as it is"
                )
                out.append(
                    f"{role} column {c!r} {hint.reason}, a direct identifier: {effect}; "
                    f"{hint.fix()}"
                )
    return out


__all__ = [
    "CATEGORIES",
    "MIN_ROWS",
    "UNIQUE_SHARE",
    "ColumnRoles",
    "IdentifierHint",
    "assign_roles",
    "identifier_hint",
    "name_category",
    "name_words",
    "unique_share",
]
