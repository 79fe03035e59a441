"""Shared fixtures: the bundled battles of every registered system."""

import json
import os

import pytest

import referee

ROOT = referee.SOURCE_DIR


def path(relative):
    """A file of the source tree."""
    return os.path.join(ROOT, relative)


def actions_of(relative):
    """The actions of an actions file: a list, or {"actions": [...]}."""
    with open(path(relative), encoding="utf-8") as f:
        j = json.load(f)
    return j["actions"] if isinstance(j, dict) else j


def battle_id(b):
    return f"{b['system']}/{b['name']}"


ALL_BATTLES = referee.bundled_battles()


@pytest.fixture(params=ALL_BATTLES, ids=battle_id)
def battle(request):
    """Each bundled battle of each system, as a dict of bundled_battles()."""
    return request.param


@pytest.fixture(params=referee.systems())
def system(request):
    return request.param
