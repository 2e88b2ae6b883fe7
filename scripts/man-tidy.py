#!/usr/bin/env python3
"""Tidies the pages swift-argument-parser's generate-manual writes with --multi-page (make man,
make man-check), into what `man` and lintian read without a warning:

- one page per command as git names them: cardscan.keys.add.1 becomes cardscan-keys-add.1
  (`man cardscan-keys-add`); the hidden __complete and the help pages are left out;
- a blank line in a command's discussion becomes a paragraph break (.Pp): mdoc warns
  "Empty input line" otherwise;
- a command's NAME is its page's (`.Nm cardscan-keys-add`), so that whatis and apropos find it
  (lintian's bad-whatis-entry), and its SYNOPSIS the command as typed (`cardscan keys add`);
- the main page's EXIT STATUS (the real table), ENVIRONMENT, FILES and SEE ALSO come from
  docs/man-sections/NAME.mdoc, the subcommand pages listed after it; a subcommand's page
  points to the main one for them.

    scripts/man-tidy.py DIR
"""
import os
import re
import sys

directory = sys.argv[1]
sections = os.path.join(os.path.dirname(__file__), "..", "docs", "man-sections")
hidden = re.compile(r"\.(__complete|help)(\.|$)")


def dashed(name):
    return name.replace(".", "-")


pages = sorted(f for f in os.listdir(directory) if f.endswith(".1"))
for f in pages:
    if hidden.search(f[:-2]):
        os.remove(os.path.join(directory, f))
pages = [f for f in pages if not hidden.search(f[:-2])]
tools = sorted({f[:-2].split(".")[0] for f in pages})

for f in pages:
    name = f[:-2]
    tool = name.split(".")[0]
    with open(os.path.join(directory, f), encoding="utf-8") as page:
        text = page.read()
    text = re.sub(r"^\.Dt (\S+) 1$", lambda m: ".Dt " + dashed(m.group(1)) + " 1", text, flags=re.M)
    text = "\n".join(".Pp" if line == "" else line for line in text.split("\n"))
    text = re.sub(r'^\.Nd "(.*)"$', r".Nd \1", text, flags=re.M)  # whatis would keep the quotes
    if name != tool:
        typed = name.replace(".", " ")
        text = text.replace(f'.Sh NAME\n.Nm "{typed}"', f".Sh NAME\n.Nm {dashed(name)}", 1)
        text = re.sub(r"^\.Nm$", f'.Nm "{typed}"', text, flags=re.M)
    # SEE ALSO as generated (the pages below this one) is made again below.
    text = re.sub(r'^\.Sh "SEE ALSO"\n(?:\.Xr .*\n)*', "", text, flags=re.M)
    subpages = [dashed(p[:-2]) for p in pages if p[:-2].startswith(name + ".")]
    if name == tool:
        custom = os.path.join(sections, tool + ".mdoc")
        extra = open(custom, encoding="utf-8").read().rstrip("\n") if os.path.exists(custom) else '.Sh "EXIT STATUS"\n.Ex -std'
        if subpages:
            extra += "\n.Pp\nEach command has a page of its own:\n" + " ,\n".join(f".Xr {p} 1" for p in subpages) + " ."
        text = text.replace('.Sh "EXIT STATUS"\n.Ex -std', extra, 1)
    else:
        parent = dashed(name.rsplit(".", 1)[0])
        see = [f".Xr {parent} 1"] + [f".Xr {p} 1" for p in subpages]
        text = text.replace(
            '.Sh "EXIT STATUS"\n.Ex -std',
            f'.Sh "EXIT STATUS"\nAs for\n.Xr {tool} 1 .\n.Sh "SEE ALSO"\n' + " ,\n".join(see),
            1,
        )
    os.remove(os.path.join(directory, f))
    with open(os.path.join(directory, dashed(name) + ".1"), "w", encoding="utf-8") as page:
        page.write(text)
