"""The built site in headless Chromium (Debian's binary and driver): pages load clean, search works, the encyclopedia reacts.

The screenshot of an encyclopedia page is kept under `$NNTERP_SITE_ARTIFACTS`
(default `site/artifacts/`).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from nnterp_site import encyclopedia

CHROMIUM = os.environ.get("NNTERP_CHROMIUM", "/usr/bin/chromium")
DRIVER = os.environ.get("NNTERP_CHROMEDRIVER", shutil.which("chromedriver") or "/usr/bin/chromedriver")
ARTIFACTS = Path(os.environ.get("NNTERP_SITE_ARTIFACTS", Path(__file__).resolve().parents[1] / "artifacts"))

if not (Path(CHROMIUM).is_file() and Path(DRIVER).is_file()):
    pytest.fail(
        f"headless Chromium is needed: {CHROMIUM} and {DRIVER} (apt-get install -y chromium chromium-driver)",
        pytrace=False,
    )

from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support import expected_conditions  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

#: How many encyclopedia mounts on the page are not drawn yet.
UNDRAWN = "return document.querySelectorAll('.nnterp-ency:not([data-ready])').length"


@pytest.fixture(scope="module")
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,1800"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    yield driver
    driver.quit()


def _open(browser, url: str) -> list[dict]:
    """Load `url` and return the console's errors."""
    browser.get_log("browser")
    browser.get(url)
    WebDriverWait(browser, 20).until(lambda d: d.execute_script("return document.readyState") == "complete")
    try:
        # The scripts have run; an encyclopedia drawing marks its mount when done, and one that throws never does.
        WebDriverWait(browser, 5).until(lambda d: d.execute_script(UNDRAWN) == 0)
    except TimeoutException:
        pass  # the console holds why the drawing did not finish
    return [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]


def _pages(built_site: Path) -> list[str]:
    pages = sorted(p.parent.relative_to(built_site).as_posix() for p in built_site.rglob("index.html"))
    return [("" if page == "." else page + "/") for page in pages if not page.startswith(("search", "assets"))]


def _differing_family(built_site: Path) -> str:
    """A family whose blocks differ, so its page has the slider."""
    for model_type in encyclopedia.families():
        page = built_site / encyclopedia.SECTION / encyclopedia.slug(model_type) / "index.html"
        for data in encyclopedia.embedded(page.read_text()) if page.is_file() else []:
            if len(data.get("kinds", [])) > 1:
                return encyclopedia.slug(model_type)
    pytest.fail("no shipped family has blocks that differ, so no page shows the block slider")


def test_every_page_loads_without_console_errors(browser, built_site: Path, site_url: str) -> None:
    failures = {}
    for page in _pages(built_site):
        errors = _open(browser, site_url + page)
        if errors:
            failures[page] = [entry["message"] for entry in errors]
    assert not failures, failures


def test_search_finds_a_value_name(browser, site_url: str) -> None:
    _open(browser, site_url)
    field = WebDriverWait(browser, 10).until(expected_conditions.element_to_be_clickable((By.CSS_SELECTOR, "input.md-search__input")))
    field.click()
    field.send_keys("attention_probabilities")
    text = WebDriverWait(browser, 30, ignored_exceptions=(StaleElementReferenceException,)).until(_result_text)
    assert "attention_probabilities" in text


def _result_text(driver) -> str | bool:
    """The search results' text once they list something; the list re-renders as results stream in."""
    results = driver.find_elements(By.CSS_SELECTOR, ".md-search-result__item")
    text = " ".join(result.text for result in results)
    return text if "attention_probabilities" in text else False


def test_encyclopedia_hover_pin_and_slider(browser, built_site: Path, site_url: str) -> None:
    slug = _differing_family(built_site)
    assert not _open(browser, f"{site_url}encyclopedia/{slug}/")
    mount = WebDriverWait(browser, 10).until(
        expected_conditions.presence_of_element_located((By.CSS_SELECTOR, ".nnterp-ency[data-ready='true']"))
    )
    card = mount.find_element(By.CSS_SELECTOR, ".ency-card")
    before = card.text

    attention = mount.find_element(By.CSS_SELECTOR, ".ency-block .ency-part[data-part='self_attn'], .ency-block .ency-part.ency-depth-1")
    ActionChains(browser).move_to_element(attention).perform()
    hovered = card.text
    assert hovered != before and "model.layers[0]." in hovered, hovered

    ActionChains(browser).click(attention).perform()
    assert "ency-card-pinned" in card.get_attribute("class")
    other = mount.find_elements(By.CSS_SELECTOR, ".ency-block .ency-part.ency-depth-1")[-1]
    ActionChains(browser).move_to_element(other).perform()
    assert card.text == hovered, "a pinned card changed on hover"

    label = mount.find_element(By.CSS_SELECTOR, ".ency-block-label")
    first_label = label.text
    slider = mount.find_element(By.CSS_SELECTOR, "input.ency-slider")
    browser.execute_script(
        "arguments[0].value = arguments[0].max; arguments[0].dispatchEvent(new Event('input', {bubbles: true}));", slider
    )
    last = int(slider.get_attribute("max"))
    assert label.text != first_label and f"block i = {last}" in label.text
    assert mount.find_element(By.CSS_SELECTOR, ".ency-block").get_attribute("data-block") == str(last)
    assert "ency-card-pinned" not in card.get_attribute("class")

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    ActionChains(browser).move_to_element(mount.find_element(By.CSS_SELECTOR, ".ency-block .ency-part.ency-depth-1")).perform()
    browser.execute_script("arguments[0].scrollIntoView();", mount)
    shot = ARTIFACTS / f"encyclopedia-{slug}.png"
    assert browser.save_screenshot(str(shot)) and shot.stat().st_size > 10_000
