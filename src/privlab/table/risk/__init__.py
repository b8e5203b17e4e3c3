"""Re-identification risk of a microdata table: prosecutor, journalist, marketer, uniqueness.

Every figure here is a function of the *equivalence classes* of the released records: the
groups of records that share one combination of quasi-identifier values (seed 000 §2.3,
Def 3.2).  A record in a class of ``f`` records is re-identified by an attacker who knows the
target's quasi-identifiers with probability ``1/f`` if the target is known to be in the data,
and ``1/F`` if the attacker links against a population in which the class has ``F ≥ f``
members.  The three attacker scenarios are those of El Emam & Dankar, "Protecting privacy
using k-anonymity" (JAMIA 2008) and El Emam, *Guide to the De-Identification of Personal
Health Information* (2013), as implemented by ARX (Prasser & Kohlmayer;
``org.deidentifier.arx.risk``):

* **prosecutor** — the target is known to be in the sample: risk ``1/f_j``;
* **journalist** — the target is someone in the population: risk ``1/F_j``;
* **marketer** — re-identify as many records as possible: ``(1/n) Σ_j f_j / F_j``.

Population uniqueness — the share of the population that is unique on the quasi-identifiers
— is estimated from the sample's class-size histogram with Pitman's model (Hoshino,
"Applying Pitman's sampling formula to microdata disclosure risk assessment", J. Official
Statistics 17(4), 2001) and Zayatz's method (Zayatz, "Estimation of the percent of unique
population elements on a microdata file using the sample", US Census Bureau SRD Report
CENSUS/SRD/RR-91/08, 1991), combined with Dankar et al.'s decision rule (Dankar, El Emam,
Neisa & Roffey, "Estimating the re-identification risk of clinical data sets", BMC Medical
Informatics and Decision Making 12:66, 2012).

Conventions (checked against ARX's ``RiskModelSampleSummary``, ``RiskModelSampleRisks``,
``RiskModelPopulationUniqueness``, ``ModelPitman`` and ``ModelZayatz``):

* a record is *at risk* when its risk is **strictly greater** than the threshold
  (ARX: ``1d / groupSize > threshold``); "records at risk" is a fraction of the records;
* suppressed records (all quasi-identifiers replaced by ``*``) are not part of any class:
  they are excluded from every figure and counted in ``suppressed`` (ARX skips outliers);
* with no population information the journalist scenario falls back to the sample
  (``F_j = f_j``), as ARX does, so it equals the prosecutor scenario and the marketer risk is
  ``classes / records``;
* the journalist's average risk is ``max(classes / Σ F_j, (1/n) Σ f_j / F_j)`` (ARX);
* a sampling fraction ``π`` defines the population size ``N = round(rows / π)`` over all
  rows of the sample (ARX's ``ARXPopulationModel.create(sampleSize, π)``); the estimators use
  the effective fraction ``records / N`` over the records that are not suppressed.

What privlab adds where ARX has no answer: when only a sampling fraction (or population size)
is known, the journalist figures use the Benedetti–Franconi estimate of each record's risk,
``E[1/F_j | f_j]`` under ``F_j − f_j ~ NegBin(f_j, π)`` (Benedetti & Franconi, "Statistical
and technological solutions for controlled data dissemination", NTTS 1998; the "individual
risk" of μ-ARGUS and sdcMicro), instead of ARX's sample fallback.  ARX's third population
model, SNB (Chen & Keller-McNulty 1998), is not implemented; see :func:`dankar_uniques`.

Layout.  :mod:`~privlab.table.risk.classes` holds the equivalence classes (class sizes of a
frame or code matrix, the histogram, suppressed rows, population size) and the argument
checks; :mod:`~privlab.table.risk.attackers` the prosecutor, journalist and marketer
figures; :mod:`~privlab.table.risk.uniqueness` the population-uniqueness models; and
:mod:`~privlab.table.risk.report` the :class:`RiskReport` that gathers them all.
"""

from __future__ import annotations

from privlab.table.risk.attackers import (
    AttackerRisk,
    estimated_record_risk,
    journalist_risk,
    marketer_risk,
    prosecutor_risk,
)
from privlab.table.risk.classes import (
    SUPPRESSED_VALUE,
    class_size_histogram,
    class_sizes_of_codes,
    class_sizes_of_frame,
)
from privlab.table.risk.report import (
    RiskReport,
    risk_from_class_sizes,
    risk_of_frame,
    risk_report,
)
from privlab.table.risk.uniqueness import (
    DANKAR_PITMAN_LIMIT,
    UniquenessEstimate,
    dankar_uniques,
    pitman_uniques,
    zayatz_uniques,
)

__all__ = [
    "DANKAR_PITMAN_LIMIT",
    "SUPPRESSED_VALUE",
    "AttackerRisk",
    "RiskReport",
    "UniquenessEstimate",
    "class_size_histogram",
    "class_sizes_of_codes",
    "class_sizes_of_frame",
    "dankar_uniques",
    "estimated_record_risk",
    "journalist_risk",
    "marketer_risk",
    "pitman_uniques",
    "prosecutor_risk",
    "risk_from_class_sizes",
    "risk_of_frame",
    "risk_report",
    "zayatz_uniques",
]
