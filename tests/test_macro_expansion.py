"""macros.py calls the macros whose arguments are literals before Jinja parses a page, holds their
output aside and puts it back afterwards: same output as Jinja alone, in the same order."""

import types

import jinja2

import macros


def _env(markdown: str, calls: list):
    def fig(id, art=None):
        calls.append(("fig", id, art))
        return f"<fig {id} {art}>"

    def chart(name):
        calls.append(("chart", name))
        return "<svg>{{ not jinja }} {# nor this #} {% neither %}</svg>"

    def figures_table():
        calls.append(("figures_table",))
        return "| a | b |"

    return types.SimpleNamespace(markdown=markdown, macros={"fig": fig, "chart": chart, "figures_table": figures_table})


def _render(env) -> str:
    """What mkdocs-macros does between our pre and post functions: Jinja with the same macros."""
    macros._HELD_OUTPUTS.clear()
    macros._expand_literal_calls(env)
    env.markdown = jinja2.Environment().from_string(env.markdown).render(**env.macros, x="kv")
    macros._put_back_held(env)
    return env.markdown


def test_literal_calls_run_in_order_and_their_output_is_not_jinja():
    calls = []
    page = 'A {{ fig("a") }} B {{ chart("roofline") }} C {{ fig("b", art="il") }} {{ figures_table() }}'
    out = _render(_env(page, calls))
    assert out == ('A <fig a None> B <svg>{{ not jinja }} {# nor this #} {% neither %}</svg> C <fig b il> | a | b |')
    assert calls == [("fig", "a", None), ("chart", "roofline"), ("fig", "b", "il"), ("figures_table",)]


def test_calls_with_expressions_or_unknown_names_are_left_to_jinja():
    calls = []
    page = '{{ fig(x) }} {{ fig("a") | upper }} {{ range(2) | list }} {{ fig("c") }}'
    out = _render(_env(page, calls))
    assert out == "<fig kv None> <FIG A NONE> [0, 1] <fig c None>"
    # the literal call runs first, in the regex pass; Jinja calls the rest while it renders
    assert calls == [("fig", "c", None), ("fig", "kv", None), ("fig", "a", None)]


def test_a_page_with_a_raw_block_is_left_to_jinja_alone():
    calls = []
    page = '{{ fig("a") }} {% raw %}{{ fig("shown as written") }}{% endraw %}'
    out = _render(_env(page, calls))
    assert out == '<fig a None> {{ fig("shown as written") }}'
    assert calls == [("fig", "a", None)]


def test_jinja_is_skipped_only_when_nothing_is_left_for_it():
    def page_after_expansion(markdown):
        env = _env(markdown, [])
        env.page = types.SimpleNamespace(meta={})
        macros._HELD_OUTPUTS.clear()
        macros._expand_literal_calls(env)
        macros._skip_jinja_if_done(env)
        return env.page.meta
    assert page_after_expansion('A {{ fig("a") }} {{ chart("x") }}') == {"render_macros": False}
    assert page_after_expansion("{{ fig(x) }}") == {}
    assert page_after_expansion('{{ fig("a") | upper }}') == {}
    assert page_after_expansion('{% raw %}{{ fig("a") }}{% endraw %}') == {}
    assert page_after_expansion("{# a note #}") == {}
    env = _env('{{ fig("a") }}', [])
    env.page = types.SimpleNamespace(meta={}, title='{{ t("Speed") }}')  # mkdocs-macros renders titles too
    macros._expand_literal_calls(env)
    macros._skip_jinja_if_done(env)
    assert env.page.meta == {}
    env = _env('{{ fig("a") }}', [])
    env.page = types.SimpleNamespace(meta={"title": "t"})
    macros._skip_jinja_if_done(env)
    macros._forget_jinja_switch(env)
    assert env.page.meta == {"title": "t"}, "the switch is taken out before the theme reads the page's meta"
    env.page = types.SimpleNamespace(meta={"render_macros": True})  # a page's own setting is left as it is
    macros._skip_jinja_if_done(env)
    macros._forget_jinja_switch(env)
    assert env.page.meta == {"render_macros": True}
