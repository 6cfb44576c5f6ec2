"""Coverage-guided fuzzing harnesses (atheris); see docs/performance.rst and tests/test_atheris.py."""
