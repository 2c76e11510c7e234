"""``--help`` of every command, and argparse's own errors, in the terminal's language throughout: ``usage :``,
``options :``, ``-h``'s help and « erreur : » in French, argparse's English words in English — through the one
catalogue (hall/app/lang.py) — and no option left without its help or named by a variable's English name."""

from __future__ import annotations

import argparse
import gettext
import os
import subprocess
import sys

import pytest

from hall.app.cli import build_parser, main

FRENCH = ("usage : loto-hall", "options :", "affiche cette aide et s'arrête")
ENGLISH = ("usage: loto-hall", "options:", "show this help message and exit")
LANGS = {"fr": "fr_FR.UTF-8", "en": "en_GB.UTF-8"}


def commands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()):
    """Every command of the parser, as its path of words (``()``, ``("cards",)``, ``("cards", "generate")``…)."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from commands(sub, (*path, name))


COMMANDS = [path for path, _ in commands(build_parser())]


@pytest.fixture
def speaking(monkeypatch):
    def speak(lang: str) -> None:
        monkeypatch.setenv("LANG", LANGS[lang])
        monkeypatch.delenv("LC_ALL", raising=False)
        monkeypatch.delenv("LC_MESSAGES", raising=False)

    return speak


def help_of(path: tuple[str, ...], capsys) -> str:
    with pytest.raises(SystemExit) as done:
        main([*path, "--help"])
    assert done.value.code == 0
    return capsys.readouterr().out


def test_there_are_commands_to_check():
    assert len(COMMANDS) >= 20 and ("report",) in COMMANDS and ("cards", "generate") in COMMANDS


@pytest.mark.parametrize("path", COMMANDS, ids=[" ".join(p) or "loto-hall" for p in COMMANDS])
def test_every_command_s_help_is_french_in_french(path, speaking, capsys):
    speaking("fr")
    out = help_of(path, capsys)
    assert out.startswith("usage : loto-hall") and all(word in out for word in FRENCH), out
    for english in ("usage:", "options:", "positional arguments", "show this help", "default:"):
        assert english not in out, (english, out)
    parser = dict(commands(build_parser()))[path]
    if any(not a.option_strings for a in parser._actions):
        assert "arguments positionnels :" in out


@pytest.mark.parametrize("path", COMMANDS, ids=[" ".join(p) or "loto-hall" for p in COMMANDS])
def test_every_command_s_help_is_english_in_english(path, speaking, capsys):
    speaking("en")
    out = help_of(path, capsys)
    assert out.startswith("usage: loto-hall") and all(word in out for word in ENGLISH), out
    for french in ("usage :", "options :", "arguments positionnels", "affiche cette aide", "défaut", "exemple"):
        assert french not in out, (french, out)


@pytest.mark.parametrize("path", COMMANDS, ids=[" ".join(p) or "loto-hall" for p in COMMANDS])
def test_every_option_says_what_it_is_for_in_words_of_its_own(path):
    """An option with no help, or a value named after the program's variable (``--count COUNT``, ``--data-dir
    DATA_DIR``), would show English in a French help: each has its help and a name given for its value."""
    parser = dict(commands(build_parser()))[path]
    for action in parser._actions:
        if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
            continue
        name = "/".join(action.option_strings) or action.dest
        assert action.help, f"{' '.join(path)} {name}: no help"
        if action.nargs != 0 and action.choices is None:
            assert action.metavar is not None, f"{' '.join(path)} {name}: its value is named {action.dest.upper()}"


@pytest.mark.parametrize(
    ("argv", "french", "english"),
    [
        (["cards", "generate"], "arguments obligatoires manquants : --count", "the following arguments are required"),
        (["games", "simulate", "jeu", "--players", "2"], "choix invalide : 'jeu' (au choix :", "invalid choice"),
        (["serve", "--port", "99999"], "n'est pas un nombre entier de 0 à 65535", "is not a whole number from 0"),
        (["games", "tournament", "--teams", "x"], "valeur invalide (nombre entier attendu) : 'x'", "invalid whole"),
        (["verify", "--bogus"], "arguments inconnus : --bogus", "unrecognized arguments: --bogus"),
        (["verify", "--config", "a", "--data-dir", "b"], "impossible avec l'argument --config", "not allowed with"),
    ],
)
def test_argparse_s_errors_speak_the_language(argv, french, english, speaking, capsys):
    for lang, expected, prefix in (("fr", french, "loto-hall"), ("en", english, "loto-hall")):
        speaking(lang)
        with pytest.raises(SystemExit) as done:
            main(argv)
        err = capsys.readouterr().err
        assert done.value.code == 2
        assert expected in err and (" : erreur : " if lang == "fr" else ": error: ") in err, err
        assert err.startswith("usage : " if lang == "fr" else "usage: ") and prefix in err


def test_argparse_is_given_back_its_own_words(speaking, capsys):
    """The words are swapped only while the command line is read: another program's argparse keeps gettext."""
    speaking("fr")
    help_of(("report",), capsys)
    parser = argparse.ArgumentParser(prog="autre")
    assert argparse._ is gettext.gettext and "show this help message and exit" in parser.format_help()


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_real_command_speaks_the_terminal_s_language(lang):
    env = {**os.environ, "LANG": LANGS[lang]}
    env.pop("LC_ALL", None)
    env.pop("LC_MESSAGES", None)
    run = subprocess.run(
        [sys.executable, "-m", "hall.app", "report", "--help"], capture_output=True, text=True, env=env, timeout=60
    )
    assert run.returncode == 0, run.stderr
    assert all(word in run.stdout for word in (FRENCH if lang == "fr" else ENGLISH)), run.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "hall.app", "report", "--lang", "de"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert bad.returncode == 2
    assert ("choix invalide : 'de'" if lang == "fr" else "invalid choice: 'de'") in bad.stderr, bad.stderr
