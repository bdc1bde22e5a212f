"""`katari voice models|install`: the speech models for spoken commands."""

from __future__ import annotations

import argparse
import sys


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("voice", help="speech models for spoken commands",
                              description="List or install vosk speech models.")
    sub = p.add_subparsers(dest="voice_command", metavar="ACTION")
    m = sub.add_parser("models", help="list the installed models")
    m.set_defaults(func=run_models)
    i = sub.add_parser("install", help="download the official small model of a language",
                       description="Download, verify and unpack a vosk model into the data "
                                   "folder (see `katari voice models`).")
    i.add_argument("lang", help="ja, en or ko (with --url: any name)")
    i.add_argument("--url", help="download from here instead (a mirror, a file server)")
    i.add_argument("--sha256", help="expected sha256 of the archive")
    i.add_argument("--name", help="folder name for the model (default: from the archive)")
    i.add_argument("--force", action="store_true", help="replace an installed model")
    i.set_defaults(func=run_install)
    p.set_defaults(func=lambda args: (p.print_help(), 0)[1])


def run_models(args: argparse.Namespace) -> int:
    from runner.ui.listener.models import OFFICIAL, installed_models, models_dir

    found = installed_models()
    print(f"# {models_dir()}")
    if not found:
        print("(no models; install one with `katari voice install ja`)")
    for m in found:
        grammar = "grammar" if m.grammar else "no grammar (big model)"
        print(f"{m.lang or '?':3} {m.name:32} {m.source:8} {m.size() / 1e6:7.1f} MB  "
              f"{grammar}  {m.path}")
    have = {m.lang for m in found}
    missing = [f"{k} ({o.name}, {o.size / 1e6:.0f} MB)" for k, o in OFFICIAL.items()
               if k not in have]
    if missing:
        print("# can install: " + ", ".join(missing))
    return 0


def run_install(args: argparse.Namespace) -> int:
    from runner.ui.listener.models import OFFICIAL, InstallError, install, progress_bar

    off = OFFICIAL.get(args.lang)
    if off is None and not args.url:
        print(f"katari voice install: no official model for {args.lang!r} "
              f"(known: {', '.join(OFFICIAL)}); give --url", file=sys.stderr)
        return 2
    if off is not None and not args.url:
        print(f"{off.name}: {off.size / 1e6:.0f} MB from {off.url}", file=sys.stderr)
    try:
        path = install(args.lang if off is not None else None, url=args.url,
                       sha256=args.sha256, name=args.name, force=args.force,
                       progress=progress_bar(sys.stderr))
    except InstallError as e:
        print(f"\nkatari voice install: {e}", file=sys.stderr)
        return 1
    print(path)
    return 0
