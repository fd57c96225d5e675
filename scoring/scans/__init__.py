"""Score sheets read by machine: the pure reader (:mod:`scoring.scans.reader`)
turns scanned pages and phone photos of the machine-readable score sheets
(:mod:`scoring.printing.marks`) into plain data per page."""
